// ch04 Fragmentation and the real OOM: what ./vramlab jshell real-oom loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.alloc.*;
import vramlab.driver.*;
import vramlab.ch04.*;
import vramlab.ch04.causes.*;
import vramlab.triage.*;
void help() { System.out.print(RealOomLab.help()); snippets(); }
