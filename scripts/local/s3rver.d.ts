// Minimal types for s3rver 3.7 (the package ships none): only what scripts/local uses.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    /** the listening server, once run() resolved */
    readonly httpServer: import('node:http').Server;
    close(): Promise<void>;
  }
}
