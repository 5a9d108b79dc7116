// The web platform globals the domain package uses, which browsers and Node 20 both have but neither
// ECMAScript's lib nor a Node-free, DOM-free project declares. Only the members used are listed.
declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | Array<[string, string]>);
  append(name: string, value: string): void;
  get(name: string): string | null;
  toString(): string;
}
