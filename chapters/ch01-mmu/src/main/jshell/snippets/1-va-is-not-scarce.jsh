// 1. VA is not scarce, physical memory is: reserve 100 TiB of VA on an 80 GiB card
var gpu = new Gpu(0, gib(80), mib(512));
var p = gpu.open(1000, "python", mib(500));
var va = p.cuMemAddressReserve(100 * TiB);
hex(va)
p.addressSpace()
p.cuMemCreate(gib(81))                    // throws: CUDA_ERROR_OUT_OF_MEMORY
p.cudaMemGetInfo()
