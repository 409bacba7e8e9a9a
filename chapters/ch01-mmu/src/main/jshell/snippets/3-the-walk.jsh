// 3. The walk: PDE3 -> PDE2 -> PDE1 -> PDE0 -> PTE, for a mapped address and an unmapped one
var p = new Gpu(mib(40)).openToyProcess();
p.cudaMalloc(mib(2));
var ptr = p.cudaMalloc(mib(2));
hex(ptr)
p.walk(ptr + 0x40)
p.walk(ptr + gib(1))
p.walk(ptr + 0x40).pte().bits()
