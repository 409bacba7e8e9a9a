// 1. One workload, three allocators: alloc 30 MiB, keep 1.5 MiB, free the 30, ask for 46
var a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), new PyTorchPolicy("expandable_segments:True"));
var activation = a.alloc(mib(30));
var kept = a.alloc(mib(3) / 2);
a.free(activation);
var c = a.alloc(mib(46));
a
readable(a.reserved())
ExpandableLab.workload(new ToyPolicy()).result()
ExpandableLab.workload(new PyTorchPolicy()).result()
