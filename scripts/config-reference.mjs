#!/usr/bin/env node
// Prints the configuration reference (every key, its default, its environment-variable form) as a Markdown
// table: the kernel's keys (packages/kernel/src/options/schema.ts) and those the built-in modules declare.
// Needs `pnpm build` first. The docs/configuration.md section between the `config-reference` markers is this
// output; a test keeps them equal.
import { BUILT_IN_MODULES, configurationTable, describeConfiguration } from '../packages/http/dist/index.js';

console.log(configurationTable(describeConfiguration(BUILT_IN_MODULES)));
