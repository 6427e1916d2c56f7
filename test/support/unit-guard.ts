/**
 * Setup file of the `unit` test project: a unit test starts no process (so no Java), listens
 * nowhere and connects nowhere; and it has no DynamoDB Local (the project has no global
 * setup). Each of these throws here, so a test filed under `unit` that needs one fails, naming
 * what it tried: file it under `integration` or `e2e` instead (vitest.config.ts).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import dgram from 'node:dgram';

function refuse(what: string): never {
  throw new Error(
    `a unit test must not ${what}: file it under the integration or e2e project (vitest.config.ts)`,
  );
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const)
  Object.assign(childProcess, { [name]: () => refuse(`start a process (child_process.${name})`) });
net.Server.prototype.listen = () => refuse('listen on a socket');
net.Socket.prototype.connect = () => refuse('open a connection');
dgram.Socket.prototype.bind = () => refuse('bind a UDP socket');
dgram.Socket.prototype.send = () => refuse('send a UDP datagram');
syncBuiltinESMExports();
