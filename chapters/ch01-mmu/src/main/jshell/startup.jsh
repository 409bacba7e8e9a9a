// ch01 The GPU has an MMU: what ./vramlab jshell mmu loads first.
import static vramlab.units.Bytes.*;
import vramlab.units.Bytes;
// Sizes with a fraction (mib(1.5)), as you would say them; Bytes.readable(x) prints any size in units.
long mib(double m) { return Math.round(m * MiB); }
long gib(double g) { return Math.round(g * GiB); }
import java.util.*;
import vramlab.gmmu.*;
import vramlab.driver.*;
import vramlab.ch01.*;
void help() { System.out.print(MmuLab.help()); snippets(); }
void quiz() { System.out.println("The quiz is outside JShell: ./vramlab quiz mmu (--student <id> for your numbers)"); }
