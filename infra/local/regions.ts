/** The probe regions of `tm local` when `--regions` is not given (also cdk.json's example deployment). */
export const DEFAULT_LOCAL_REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'] as const;
