#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# series-break.py PATCHES OUT: write to OUT patches 1 and 2 of the series
# in PATCHES, patch 2 broken twice: the new file
# include/linux/expsync_knob.h (an API that kernel/expsync/core.c uses)
# is dropped, and kernel/expsync/Makefile gets a line with trailing
# blanks.  make check's series section expects series-check.sh to find
# both (checkpatch and compile failures of patch 2).
import glob
import os
import re
import shutil
import sys

src, out = sys.argv[1], sys.argv[2]
p1 = glob.glob(os.path.join(src, '0001-*.patch'))
p2 = glob.glob(os.path.join(src, '0002-*.patch'))
if len(p1) != 1 or len(p2) != 1:
    sys.exit('series-break: no single patch 1 and 2 in ' + src)
shutil.copy(p1[0], out)
text = open(p2[0]).read()
blocks = re.split(r'(?m)^(?=diff --git )', text)
kept = []
dropped = added = False
for b in blocks:
    if b.startswith('diff --git a/include/linux/expsync_knob.h '):
        dropped = True
        continue
    if b.startswith('diff --git a/kernel/expsync/Makefile '):
        m = re.search(r'(?m)^@@ -0,0 \+1,(\d+) @@', b)
        if not m:
            sys.exit('series-break: kernel/expsync/Makefile is not a new file in patch 2')
        n = int(m.group(1))
        b = b.replace(m.group(0), '@@ -0,0 +1,%d @@' % (n + 1), 1)
        # The file's last hunk line, then ours.
        lines = b.rstrip('\n').split('\n')
        # Where the diff block ends: a trailing "-- " signature separator
        # belongs to the patch, not to the block.
        tail = []
        while lines and not lines[-1].startswith('+'):
            tail.insert(0, lines.pop())
        lines.append('+# negative control   ')
        b = '\n'.join(lines + tail) + '\n'
        added = True
    kept.append(b)
if not (dropped and added):
    sys.exit('series-break: patch 2 lacks include/linux/expsync_knob.h or kernel/expsync/Makefile')
open(os.path.join(out, os.path.basename(p2[0])), 'w').write(''.join(kept))
