// ch06 Inference memory: what ./vramlab jshell buddy loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.driver.*;
import vramlab.alloc.*;
import vramlab.buddy.*;
import vramlab.kv.*;
import vramlab.ch06.*;
void help() { System.out.print(BuddyLab.help()); snippets(); }
