// Starts DynamoDB Local the way `tm local` needs it, run in Java's single-file source mode:
//   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* DynamoDbLocalLauncher.java PORT [DynamoDB Local options]
//
// - Loopback only. DynamoDB Local has no host option and listens on every interface; this builds
//   the server through DynamoDB Local's own ServerRunner, then sets its Jetty connector to
//   127.0.0.1 (and PORT; 0 picks a free one) before it starts. It prints
//   "listening 127.0.0.1:<port>" once it accepts connections.
// - No browser requests. A request with an Origin or Sec-Fetch-* header, or a Host that is not a
//   loopback name (DNS rebinding), is answered 403 before DynamoDB Local sees it, so a web page
//   can neither read nor write the table (DynamoDB Local's own CORS default allows every origin).
// - Dies with its parent. It exits when its stdin reaches end of file (the parent closed the
//   pipe, or died: the kernel closes it even after SIGKILL) and when the parent process exits.
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class DynamoDbLocalLauncher {
  private static final String HOST = "127.0.0.1";
  private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

  public static void main(String[] args) throws Exception {
    exitWithParent();
    int port = Integer.parseInt(args[0]);
    DynamoDBProxyServer proxy =
        ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    connector.setHost(HOST);
    connector.setPort(port);
    server.setHandler(new RefuseBrowsers(server.getHandler()));
    proxy.safeStart(); // throws when the port cannot be bound (start() would only print it)
    System.out.println("listening " + HOST + ":" + connector.getLocalPort());
    System.out.flush();
    proxy.join();
  }

  private static void exitWithParent() {
    Thread stdin =
        new Thread(
            () -> {
              try {
                while (System.in.read() != -1) {
                  // the parent writes nothing; end of file is the signal
                }
              } catch (Exception ignored) {
                // a broken pipe means the same
              }
              Runtime.getRuntime().halt(0);
            },
            "exit-with-parent");
    stdin.setDaemon(true);
    stdin.start();
    ProcessHandle.current()
        .parent()
        .ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
  }

  /** Answers 403 to what only a browser sends; everything else goes to DynamoDB Local. */
  static final class RefuseBrowsers extends Handler.Wrapper {
    RefuseBrowsers(Handler handler) {
      super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String reason = refusal(request);
      if (reason == null) return super.handle(request, response, callback);
      String body =
          "{\"__type\":\"com.amazonaws.dynamodb.v20120810#AccessDeniedException\",\"message\":\""
              + reason
              + "\"}";
      response.setStatus(403);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.0");
      response.write(true, java.nio.ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
      return true;
    }

    private static String refusal(Request request) {
      for (HttpField header : request.getHeaders()) {
        String name = header.getName().toLowerCase(Locale.ROOT);
        if (name.equals("origin")) return "Cross-site requests (with an Origin header) are refused";
        if (name.startsWith("sec-fetch-")) return "Browser requests (with Sec-Fetch headers) are refused";
      }
      String host = request.getHeaders().get(HttpHeader.HOST);
      String name = host == null ? "" : host.toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "");
      return LOOPBACK_NAMES.contains(name) ? null : "The Host header is not a loopback name";
    }
  }
}
