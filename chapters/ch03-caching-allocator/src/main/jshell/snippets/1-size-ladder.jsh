// 1. The size ladder under the toy policy: what a request costs, and which pool serves it
var toy = new ToyPolicy();
readable(toy.roundSize(100))
readable(toy.roundSize(mib(1)))
readable(toy.roundSize(mib(1) + 1))
toy.poolFor(toy.roundSize(mib(1)))
toy.poolFor(toy.roundSize(mib(1) + 1))
readable(toy.segmentSize(toy.roundSize(mib(3) + 1)))
readable(toy.segmentSize(toy.roundSize(mib(25))))
System.out.print(CachingAllocatorLab.ladder(toy))
