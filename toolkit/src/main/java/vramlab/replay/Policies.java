package vramlab.replay;

import java.util.List;

import vramlab.alloc.AllocConf;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;

/** The allocator policies {@code --policy} names. */
public final class Policies {
    private Policies() {}

    public static List<String> names() { return List.of("toy", "pytorch"); }

    /**
     * @param name      {@code toy} (the simplified policy chapter 3 starts from) or {@code pytorch} (PyTorch's
     *                  native caching allocator)
     * @param allocConf a {@code PYTORCH_CUDA_ALLOC_CONF} string, or empty
     * @throws IllegalArgumentException naming the unknown policy or option
     */
    public static Policy create(String name, String allocConf) {
        if (name.equals("toy")) {
            if (!allocConf.isBlank()) {
                throw new IllegalArgumentException("--alloc-conf applies to --policy pytorch, not to the toy");
            }
            return new ToyPolicy();
        }
        if (name.equals("pytorch")) {
            try {
                return new PyTorchPolicy(AllocConf.parse(allocConf));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--alloc-conf '" + allocConf + "': " + e.getMessage(), e);
            }
        }
        throw new IllegalArgumentException("unknown policy '" + name + "' (expected one of " + names() + ")");
    }
}
