// 1. The rounding tax: cudaMalloc maps whole 2 MiB pages
var p = new Gpu(gib(1)).openToyProcess();
var a = p.cudaMalloc(64);
readable(p.allocationSize(a))
var b = p.cudaMalloc(mib(3) + 1);
readable(p.allocationSize(b))
var c = p.cudaMalloc(mib(100) + 1);
readable(p.allocationSize(c) - (mib(100) + 1))
