// 3. The VMM calls one at a time: reserve, create, map, set access, then misuses and their codes
var p = new Gpu(mib(64)).openToyProcess();
var va = p.cuMemAddressReserve(mib(8));
var h = p.cuMemCreate(mib(4));
p.cuMemMap(va, mib(4), h);
p.addressSpace().find(va, PageSize.SIZE_2M)
p.cuMemSetAccess(va, mib(4), Access.READWRITE);
p.addressSpace().find(va, PageSize.SIZE_2M)
p.cuMemCreate(6912)                       // throws: CUDA_ERROR_INVALID_VALUE, not page-sized
p.cuMemUnmap(va, mib(2))                  // throws: CUDA_ERROR_INVALID_VALUE, half a mapping
p.cuMemRelease(h);
readable(p.mappedBytes())
p.cuMemUnmap(va, mib(4));
p.cuMemAddressFree(va, mib(8));
readable(p.mappedBytes())
