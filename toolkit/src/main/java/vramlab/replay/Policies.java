package vramlab.replay;

import java.util.List;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.PyTorchRelease;
import vramlab.alloc.ToyPolicy;

/** The allocator policies {@code --policy} names. */
public final class Policies {
    private Policies() {}

    public static List<String> names() { return List.of("toy", "pytorch"); }

    /**
     * {@code --pytorch-version}'s value as a release; null stays null (the default, or what a
     * snapshot implies).
     *
     * @throws IllegalArgumentException {@code '2.9x' is not a release the kit models; expected one of ...}
     */
    public static PyTorchRelease release(String version) {
        return version == null ? null : PyTorchRelease.named(version);
    }

    /**
     * @param name      {@code toy} (the simplified policy chapter 3 starts from) or {@code pytorch} (PyTorch's
     *                  native caching allocator)
     * @param allocConf a {@code PYTORCH_CUDA_ALLOC_CONF} string, or empty
     * @throws IllegalArgumentException naming the unknown policy or option
     */
    public static Policy create(String name, String allocConf) {
        return create(name, allocConf, PyTorchRelease.DEFAULT);
    }

    /**
     * The same; {@code pytorch} reads {@code allocConf} by {@code release}'s parser and follows its
     * rules where releases differ ({@link PyTorchRelease}).
     */
    public static Policy create(String name, String allocConf, PyTorchRelease release) {
        if (name.equals("toy")) {
            if (!allocConf.isBlank()) {
                throw new IllegalArgumentException("--alloc-conf applies to --policy pytorch, not to the toy");
            }
            return new ToyPolicy();
        }
        if (name.equals("pytorch")) {
            try {
                return PyTorchPolicy.of(allocConf, release);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--alloc-conf '" + allocConf + "': " + e.getMessage(), e);
            }
        }
        throw new IllegalArgumentException("unknown policy '" + name + "' (expected one of " + names() + ")");
    }
}
