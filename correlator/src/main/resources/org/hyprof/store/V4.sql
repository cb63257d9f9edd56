-- version 4: each event chunk carries the CRC-32 of its record bytes (data), computed when it is
-- stored; reports and exports check it, so a chunk damaged in the file is named, never replayed.
-- Chunks stored before version 4 have none (NULL) and cannot be checked.
ALTER TABLE event_chunk ADD COLUMN crc32 INTEGER;
