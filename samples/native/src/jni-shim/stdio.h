/* jni.h includes <stdio.h> but uses nothing from it; the demo library is built without libc
   headers (-nostdinc, see ../../build.sh), so this empty header stands in for it. */
