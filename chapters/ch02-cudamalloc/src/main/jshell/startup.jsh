// ch02 cudaMalloc, page-granular and slow: what ./vramlab jshell cudamalloc loads first.
import static vramlab.units.Bytes.*;
import java.util.*;
import vramlab.gmmu.*;
import vramlab.driver.*;
import vramlab.alloc.*;
import vramlab.ch02.*;
void help() { System.out.print(CudaMallocLab.help()); snippets(); }
