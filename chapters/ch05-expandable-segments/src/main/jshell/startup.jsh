// ch05 Expandable segments: what ./vramlab jshell expandable-segments loads first.
import static vramlab.units.Bytes.*;
import vramlab.units.Bytes;
// Sizes with a fraction (mib(1.5)), as you would say them; Bytes.readable(x) prints any size in units.
long mib(double m) { return Math.round(m * MiB); }
long gib(double g) { return Math.round(g * GiB); }
import java.util.*;
import vramlab.alloc.*;
import vramlab.driver.*;
import vramlab.ch05.*;
void help() { System.out.print(ExpandableLab.help()); snippets(); }
