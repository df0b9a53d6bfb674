#!/usr/bin/env node
// The same as bin/mem.cjs (the installed `mem`), for `node bin/mem.js`.
import './mem.cjs';
