package vramlab.gmmu;

import java.util.List;

/**
 * A page walk, level by level: the entry each level's index selected, and how it ended, in a
 * PTE or in a fault.
 */
public record Walk(long va, MmuFormat format, List<Step> steps, Pte pte, PageFault fault) {

    /** One level visited: its depth, name, the index VA bits selected, and what the entry held. */
    public record Step(int depth, String level, int index, String entry) {
        @Override public String toString() {
            return String.format("  %-7s[%3d] %s", level, index, entry);
        }
    }

    public Walk {
        steps = List.copyOf(steps);
        if ((pte == null) == (fault == null)) throw new IllegalArgumentException("Walk: a PTE or a fault");
    }

    public static Walk hit(long va, MmuFormat format, List<Step> steps, Pte pte) {
        return new Walk(va, format, steps, pte, null);
    }

    public static Walk fault(long va, MmuFormat format, List<Step> steps, String level, int index,
                             String why) {
        return new Walk(va, format, steps, null, new PageFault(va, level, index, why));
    }

    public boolean found() { return pte != null; }

    /** Where the walk stopped: the last level visited. */
    public Step last() { return steps.get(steps.size() - 1); }

    /** The physical address: the page's address plus the VA's offset inside the page. */
    public long physical() {
        if (pte == null) throw fault;
        return pte.address() + (va & (pte.size().bytes() - 1));
    }

    @Override public String toString() {
        StringBuilder b = new StringBuilder("walk(0x" + Long.toHexString(va) + ") on " + format + "\n");
        for (Step s : steps) b.append(s).append('\n');
        if (pte != null) {
            b.append(String.format("  => %s + offset 0x%x = physical 0x%x\n",
                    pte, va & (pte.size().bytes() - 1), physical()));
        } else {
            b.append("  => ").append(fault.getMessage()).append('\n');
        }
        return b.toString();
    }
}
