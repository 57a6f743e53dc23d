import { createBundledEmbedder } from '../src/embedders/index.js';
const e = createBundledEmbedder();
const texts = Array.from({ length: 256 }, (_, i) => `I went hiking with my kids last weekend number ${i} and we saw a beautiful lake`);
let t = performance.now(); await e.embed(texts.slice(0, 8)); console.log('warm', performance.now() - t);
t = performance.now(); await e.embed(texts); console.log('256 texts ms', performance.now() - t);
const zh = Array.from({ length: 64 }, (_, i) => `我上周末带孩子去爬山了，看到了一个很美的湖，第${i}次`);
t = performance.now(); await e.embed(zh); console.log('64 zh ms', performance.now() - t);
t = performance.now(); await e.embed(['What did Caroline paint?']); console.log('1 query ms', performance.now() - t);
