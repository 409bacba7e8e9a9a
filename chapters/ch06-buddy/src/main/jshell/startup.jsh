// ch06 Inference memory: what ./vramlab jshell buddy loads first.
import static vramlab.units.Bytes.*;
import vramlab.units.Bytes;
// Sizes with a fraction (mib(1.5)), as you would say them; Bytes.readable(x) prints any size in units.
long mib(double m) { return Math.round(m * MiB); }
long gib(double g) { return Math.round(g * GiB); }
import java.util.*;
import vramlab.driver.*;
import vramlab.alloc.*;
import vramlab.buddy.*;
import vramlab.kv.*;
import vramlab.ch06.*;
void help() { System.out.print(BuddyLab.help()); snippets(); }
