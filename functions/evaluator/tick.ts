// Placeholder entry point so that the CDK app can be synthesised while the handler is being written.
export const handler = async (): Promise<never> => {
  throw new Error('not implemented yet');
};
