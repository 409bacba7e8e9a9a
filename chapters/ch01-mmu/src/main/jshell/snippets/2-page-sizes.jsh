// 2. Page sizes: sweep 2 MiB in 4 KiB steps over one 2M page, then over 512 4K pages
var big = new AddressSpace(MmuFormat.VER2, new Tlb(64));
big.map(GpuProcess.VA_BASE, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
for (long off = 0; off < mib(2); off += 4096) big.translate(GpuProcess.VA_BASE + off);
big.tlb()
var small = new AddressSpace(MmuFormat.VER2, new Tlb(64));
for (long off = 0; off < mib(2); off += 4096) small.map(GpuProcess.VA_BASE + off, Pte.local(PageSize.SIZE_4K, off, Access.READWRITE, 0));
for (long off = 0; off < mib(2); off += 4096) small.translate(GpuProcess.VA_BASE + off);
small.tlb()
small.pageTableBytes()
