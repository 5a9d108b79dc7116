// zod as the domain and the web app build their schemas with it: configured before the first schema is
// built. zod compiles its parsers with new Function() where it may, and finds out whether it may by trying
// as the first schema is built; a page's CSP forbids eval, so in a browser (where there is a document) the
// probe would be a reported violation and parsers are interpreted instead. The server keeps compiled ones.
// The bundle takes this module, and zod, only into pages that build a schema (package.json: sideEffects):
// `z` is this module's own binding, not a re-export the bundler could resolve past it.
import { z as zod } from 'zod';

zod.config({ jitless: 'document' in globalThis });

export import z = zod;
