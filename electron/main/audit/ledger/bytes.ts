/** An unsigned 64-bit big-endian integer: the fixed-width encoding of seq and epoch in every hash and MAC input. */
export function u64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}
