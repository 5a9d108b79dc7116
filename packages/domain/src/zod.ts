// zod as the domain and the web app build their schemas with it: configured before the first schema is
// built. zod compiles its parsers with new Function() where it may, and finds out whether it may by trying
// as the first schema is built; a page's CSP forbids eval, so in a browser (where there is a document) the
// probe would be a reported violation and parsers are interpreted instead. The server keeps compiled ones.
// The bundle takes this module, and zod, only into pages that build a schema (package.json: sideEffects):
// `z` is this module's own binding, not a re-export the bundler could resolve past it, and it holds only
// the builders of ./zod-members: the bundle keeps a namespace value whole, and zod's own holds its 40
// locales and its JSON Schema converters (some 60 KB gzipped that no page runs).
import { config } from 'zod';
import * as members from './zod-members';

config({ jitless: 'document' in globalThis });

export import z = members;
