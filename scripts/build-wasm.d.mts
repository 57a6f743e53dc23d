export function compileWat(path: string): Promise<string>;
export function generated(name: string, base64: string): string;
