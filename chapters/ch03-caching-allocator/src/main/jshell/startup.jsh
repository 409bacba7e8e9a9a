// ch03 The caching allocator: what ./vramlab jshell caching-allocator loads first.
import static vramlab.units.Bytes.*;
import vramlab.units.Bytes;
// Sizes with a fraction (mib(1.5)), as you would say them; Bytes.readable(x) prints any size in units.
long mib(double m) { return Math.round(m * MiB); }
long gib(double g) { return Math.round(g * GiB); }
import java.util.*;
import vramlab.alloc.*;
import vramlab.driver.*;
import vramlab.ch03.*;
void help() { System.out.print(CachingAllocatorLab.help()); snippets(); }
