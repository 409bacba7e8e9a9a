// ch03 The caching allocator: what ./vramlab jshell caching-allocator loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.alloc.*;
import vramlab.driver.*;
import vramlab.ch03.*;
void help() { System.out.print(CachingAllocatorLab.help()); snippets(); }
