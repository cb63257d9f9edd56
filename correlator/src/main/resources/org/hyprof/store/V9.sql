-- version 9: each native method's cost split by the library its code lies in (issue 16 item 4):
-- library is the app library whose emulator ran the calls (its file name), code_library the
-- library the executed instructions lie in: the same name for the app's own code, a library found
-- beside it (libc++_shared.so), or a system library (userland bionic: libc.so, libm.so, libz.so …);
-- system 1 for Android's system libraries, 0 for the app's code. probe_id is the native
-- method's (-1: JNI_OnLoad). Over all of the method's calls: block executions, instructions,
-- estimated cycles, device time (ns) and energy (pJ). Sessions recorded before version 9 have no
-- rows here.
CREATE TABLE native_library_cost (
  process_id INTEGER NOT NULL, library TEXT NOT NULL, code_library TEXT NOT NULL, system INTEGER NOT NULL,
  probe_id INTEGER NOT NULL,
  blocks INTEGER NOT NULL, instructions INTEGER NOT NULL, cycles INTEGER NOT NULL, est_ns INTEGER NOT NULL,
  energy_pj INTEGER NOT NULL,
  PRIMARY KEY (process_id, library, code_library, probe_id)
);
