package vramlab.alloc;

/**
 * Tests that give a memory fraction in the config string. PyTorch 2.9 has no
 * {@code per_process_memory_fraction} key ({@link AllocConfKeys}): a 2.9 process gets its limit
 * from {@code torch.cuda.set_per_process_memory_fraction} in code, which sets the same limit
 * ({@link CachingAllocator#setMemoryFraction}). These tests write that call as the key: a string
 * with it is read by 2.10's parser (the only one with the key) and run under the release asked
 * for, and holds nothing else on which the two parsers differ (a max_split_size_mb of 20, a
 * {@code >} entry of roundup_power2_divisions); any other string is read by that release's own.
 */
final class CodeFraction {
    private CodeFraction() {}

    /** Under the default release, 2.9. */
    static PyTorchPolicy policy(String conf) { return policy(conf, PyTorchRelease.DEFAULT); }

    static PyTorchPolicy policy(String conf, PyTorchRelease r) {
        if (!conf.contains("per_process_memory_fraction")) return PyTorchPolicy.of(conf, r);
        return PyTorchPolicy.of(conf, PyTorchRelease.V2_10).under(r);
    }
}
