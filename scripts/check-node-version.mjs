#!/usr/bin/env node
// Every npm script runs on the Node of the `node` devDependency (npm puts its binary first on the PATH):
// Node 24, the LTS, whatever the machine has. Fails when a script got another one.
import { readFileSync } from 'node:fs';

const project = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = project.devDependencies.node;
if (process.versions.node !== wanted) {
  console.error(`Node ${process.versions.node} runs this, not the project's ${wanted}: run it through npm.`);
  process.exit(1);
}
console.log(`Node ${process.version}`);
