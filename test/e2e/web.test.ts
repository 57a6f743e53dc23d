// The browser suites run one after another in this one file: one Chromium at a time, so the
// rest of the test run (which spawns processes of its own) keeps its share of a small machine.
import './memories.suite.js';
import './memory-edit.suite.js';
import './playground.suite.js';
import './layers.suite.js';
import './todos.suite.js';
import './forget.suite.js';
import './access.suite.js';
import './relations.suite.js';
