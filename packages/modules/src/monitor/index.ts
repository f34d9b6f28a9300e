/** The server probes of module `Monitor`. */
export { CPU_SAMPLE_MS, type ServerSnapshot, sampleServer } from './monitor.js';
