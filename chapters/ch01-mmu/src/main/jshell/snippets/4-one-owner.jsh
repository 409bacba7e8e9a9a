// 4. One owner: two processes' chunks in the driver's one pool, and nvidia-smi's view
var gpu = new Gpu(0, gib(80), mib(512));
var train = gpu.open(4242, "train.py", mib(500));
var notebook = gpu.open(5151, "notebook", mib(500));
var t = train.cudaMalloc(gib(20));
var n = notebook.cudaMalloc(gib(6));
train.translate(t)
notebook.translate(n)
gpu.pool()
System.out.print(NvidiaSmi.listing(List.of(gpu)))
train.cudaMemGetInfo()
