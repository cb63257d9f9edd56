-- version 6: the operating system's id of each recording thread (the runtime's THREADS chunk),
-- for exports that lay a session beside a system trace. Sessions recorded before have no rows:
-- their exports use the Java thread id, as before.
CREATE TABLE thread_os_id (
  process_id INTEGER NOT NULL REFERENCES process(id),
  tid INTEGER NOT NULL,
  os_tid INTEGER NOT NULL,
  PRIMARY KEY (process_id, tid)
);
