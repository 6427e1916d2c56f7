export declare const PACKAGE_ROOT: string;
export declare const SOURCE_FOLDERS: readonly string[];
export declare function packageSources(): string[];
export declare function isRuntimeFile(file: string): boolean;
