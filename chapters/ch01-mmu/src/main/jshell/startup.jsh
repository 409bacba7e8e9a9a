// ch01 The GPU has an MMU: what ./vramlab jshell mmu loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.gmmu.*;
import vramlab.driver.*;
import vramlab.ch01.*;
void help() { System.out.print(MmuLab.help()); snippets(); }
void quiz() { System.out.println("The quiz is outside JShell: ./vramlab quiz mmu (--student <id> for your numbers)"); }
