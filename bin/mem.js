#!/usr/bin/env node
import '../dist/cli/entry.js';
