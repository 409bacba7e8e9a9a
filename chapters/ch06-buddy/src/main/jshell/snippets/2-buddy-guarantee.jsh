// 2. The buddy's guarantee: half a 1 GiB pool free, and 128 MiB still refused
var b = BuddyAllocator.upfront(new Gpu(gib(2)).openToyProcess(), gib(1), 21, 30);
var seqs = new ArrayList<Long>();
for (int i = 0; i < 16; i++) seqs.add(b.alloc(mib(64)));
for (int i = 0; i < 16; i += 2) b.free(seqs.get(i));
readable(b.freeBytes())
readable(b.largestFreeBlock())
b.alloc(mib(128))                         // throws: BuddyOutOfMemoryError, with 512 MiB free
b.compact()
readable(b.largestFreeBlock())
