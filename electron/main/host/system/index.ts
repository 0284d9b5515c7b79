export { createSystemInfo } from './system-info';
