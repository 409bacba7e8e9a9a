// ch05 Expandable segments: what ./vramlab jshell expandable-segments loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.alloc.*;
import vramlab.driver.*;
import vramlab.ch05.*;
void help() { System.out.print(ExpandableLab.help()); snippets(); }
