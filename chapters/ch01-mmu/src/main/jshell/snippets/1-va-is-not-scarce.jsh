// 1. VA is plenty, though it ends at 128 TiB; physical memory is scarce (an 80 GiB card)
var gpu = new Gpu(0, gib(80), mib(512));
var p = gpu.open(1000, "python", mib(500));
var va = p.cuMemAddressReserve(gib(512));
hex(va)
p.addressSpace()
p.cuMemAddressReserve(100 * TiB)          // throws: CUDA_ERROR_OUT_OF_MEMORY
p.cuMemCreate(gib(81))                    // throws: CUDA_ERROR_OUT_OF_MEMORY
p.cudaMemGetInfo()
