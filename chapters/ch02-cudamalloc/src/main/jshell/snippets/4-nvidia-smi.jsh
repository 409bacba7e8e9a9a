// 4. What nvidia-smi counts: mappings plus the context, in whole MiB
var gpu = new Gpu(0, gib(80), mib(512));
var p = gpu.open(4242, "python", mib(500));
p.cudaMalloc(mib(3) + 1);
p.cudaMalloc(kib(1));
readable(p.mappedBytes())
readable(p.contextBytes())
NvidiaSmi.row(p)
