"""The faults of the eighteenth session and after, in the order they landed: one block per round or piece of work.

Split from :mod:`fault_list` (which imports this list and appends it to its own) so that each file stays under the
module limit; a new round adds its block at the end of this file.
"""

from __future__ import annotations

from .fault_model import Fault

SESSION18: tuple[Fault, ...] = ()

# --- blind round 53 (issue 44): drawn must-rules (seed 20261216) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round53 import BLIND_round53  # noqa: E402

SESSION18 = SESSION18 + BLIND_round53  # BLIND_round53_MISSED: left out (docs/blind-rounds.md)

# --- blind round 54 (issue 44): drawn must-rules (seed 20261216) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round54 import BLIND_round54  # noqa: E402

SESSION18 = SESSION18 + BLIND_round54  # BLIND_round54_MISSED: left out (docs/blind-rounds.md)

# --- blind round 55 (issue 44): drawn must-rules (seed 20261216) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round55 import BLIND_round55  # noqa: E402

SESSION18 = SESSION18 + BLIND_round55  # BLIND_round55_MISSED: left out (docs/blind-rounds.md)

# --- paths19 (issue 44 items 2 and 5): a timing cache's kind closed (the recipient's own view read right before)
from .faults_paths19 import PATHS19  # noqa: E402

SESSION18 = SESSION18 + PATHS19

# --- wiki20 (issue 44 items 2 and 5): accepted actions on wiki nodes the run never took (an answer's unwikify)
from .faults_wiki20 import WIKI20  # noqa: E402

SESSION18 = SESSION18 + WIKI20

# --- forms20 (issue 44 item 3): an option of an accepted write dropped in one input form
from .faults_forms20 import FORMS20  # noqa: E402

SESSION18 = SESSION18 + FORMS20

# --- blind round 57 (issue 44): drawn must-rules (seed 20261217) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round57 import BLIND_round57  # noqa: E402

SESSION18 = SESSION18 + BLIND_round57  # BLIND_round57_MISSED: left out (docs/blind-rounds.md)

# --- blind round 56 (issue 44): drawn must-rules (seed 20261217) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round56 import BLIND_round56  # noqa: E402

SESSION18 = SESSION18 + BLIND_round56  # BLIND_round56_MISSED: left out (docs/blind-rounds.md)

# --- blind round 58 (issue 44): drawn must-rules (seed 20261218) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round58 import BLIND_round58  # noqa: E402

SESSION18 = SESSION18 + BLIND_round58  # BLIND_round58_MISSED: left out (docs/blind-rounds.md)

# --- trades20 (issue 44 items 2, 7): a refusal broken on an own-node cell's refused half only
from .faults_trades20 import TRADES20  # noqa: E402

SESSION18 = SESSION18 + TRADES20

# --- blind round 59 (issue 44): drawn must-rules (seed 20261218) + seven outside kinds, measured blind, closed by kind
from .faults_blind_round59 import BLIND_round59  # noqa: E402

SESSION18 = SESSION18 + BLIND_round59  # BLIND_round59_MISSED: left out (docs/blind-rounds.md)

# --- order20 (issue 44 item 6): a read order a visibility kept a few seconds gets wrong, on another list
from .faults_order20 import ORDER20  # noqa: E402

SESSION18 = SESSION18 + ORDER20

# --- blind round 60 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round60 import BLIND_round60  # noqa: E402

SESSION18 = SESSION18 + BLIND_round60  # BLIND_round60_MISSED: left out (docs/blind-rounds.md)
# --- blind round 61 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round61 import BLIND_round61  # noqa: E402

SESSION18 = SESSION18 + BLIND_round61  # BLIND_round61_MISSED: left out (docs/blind-rounds.md)
# --- blind round 62 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round62 import BLIND_round62  # noqa: E402

SESSION18 = SESSION18 + BLIND_round62  # BLIND_round62_MISSED: left out (docs/blind-rounds.md)
# --- blind round 63 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round63 import BLIND_round63  # noqa: E402

SESSION18 = SESSION18 + BLIND_round63  # BLIND_round63_MISSED: left out (docs/blind-rounds.md)
# --- blind round 64 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round64 import BLIND_round64  # noqa: E402

SESSION18 = SESSION18 + BLIND_round64  # BLIND_round64_MISSED: left out (docs/blind-rounds.md)
# --- blind round 65 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round65 import BLIND_round65  # noqa: E402

SESSION18 = SESSION18 + BLIND_round65  # BLIND_round65_MISSED: left out (docs/blind-rounds.md)
# --- blind round 66 (issue 44): fifteen outside kinds on the session's merged suites, measured blind (no closing)
from .faults_blind_round66 import BLIND_round66  # noqa: E402

SESSION18 = SESSION18 + BLIND_round66  # BLIND_round66_MISSED: left out (docs/blind-rounds.md)
# --- blind round 67 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round67 import BLIND_round67  # noqa: E402

SESSION18 = SESSION18 + BLIND_round67  # BLIND_round67_MISSED: left out (docs/blind-rounds.md)
# --- blind round 68 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round68 import BLIND_round68  # noqa: E402

SESSION18 = SESSION18 + BLIND_round68  # BLIND_round68_MISSED: left out (docs/blind-rounds.md)
# --- blind round 69 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round69 import BLIND_round69  # noqa: E402

SESSION18 = SESSION18 + BLIND_round69  # BLIND_round69_MISSED: left out (docs/blind-rounds.md)
# --- seeds23 (issue 44): round66's miss on a seed-drawn path (an unwikified answer), registered with its draw
from .faults_seed23 import SEED23  # noqa: E402

SESSION18 = SESSION18 + SEED23
# --- accept23 (issue 44): a lock before an unwikify, a private option in a child space, closed by kind
from .faults_accept23 import ACCEPT23  # noqa: E402

SESSION18 = SESSION18 + ACCEPT23
# --- blind round 70 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round70 import BLIND_round70  # noqa: E402

SESSION18 = SESSION18 + BLIND_round70  # BLIND_round70_MISSED: left out (docs/blind-rounds.md)
# --- blind round 71 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round71 import BLIND_round71  # noqa: E402

SESSION18 = SESSION18 + BLIND_round71  # BLIND_round71_MISSED: left out (docs/blind-rounds.md)
# --- blind round 72 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round72 import BLIND_round72  # noqa: E402

SESSION18 = SESSION18 + BLIND_round72  # BLIND_round72_MISSED: left out (docs/blind-rounds.md)
# --- blind round 73 (issue 44): drawn must-rules (seed 20261204) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round73 import BLIND_round73  # noqa: E402

SESSION18 = SESSION18 + BLIND_round73  # BLIND_round73_MISSED: left out (docs/blind-rounds.md)
# --- blind round 74 (issue 44): drawn must-rules (seed 20261204) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round74 import BLIND_round74  # noqa: E402

SESSION18 = SESSION18 + BLIND_round74  # BLIND_round74_MISSED: left out (docs/blind-rounds.md)
# --- blind round 75 (issue 44): drawn must-rules (seed 20261204) + eight outside kinds, measured blind, closed by kind
from .faults_blind_round75 import BLIND_round75  # noqa: E402

SESSION18 = SESSION18 + BLIND_round75  # BLIND_round75_MISSED: left out (docs/blind-rounds.md)
# --- blind round 76 (issue 44): drawn must-rules (seed 20261205) + eight outside kinds, measured blind
from .faults_blind_round76 import BLIND_round76  # noqa: E402

SESSION18 = SESSION18 + BLIND_round76  # BLIND_round76_MISSED: left out (docs/blind-rounds.md)
# --- blind round 77 (issue 44): drawn must-rules (seed 20261205) + eight outside kinds, measured blind
from .faults_blind_round77 import BLIND_round77  # noqa: E402

SESSION18 = SESSION18 + BLIND_round77  # BLIND_round77_MISSED: left out (docs/blind-rounds.md)
# --- blind round 78 (issue 44): drawn must-rules (seed 20261205) + eight outside kinds, measured blind
from .faults_blind_round78 import BLIND_round78  # noqa: E402

SESSION18 = SESSION18 + BLIND_round78  # BLIND_round78_MISSED: left out (docs/blind-rounds.md)
# --- blind round 81 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from .faults_blind_round81 import BLIND_round81  # noqa: E402

SESSION18 = SESSION18 + BLIND_round81  # BLIND_round81_MISSED: left out (docs/blind-rounds.md)
# --- blind round 80 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from .faults_blind_round80 import BLIND_round80  # noqa: E402

SESSION18 = SESSION18 + BLIND_round80  # BLIND_round80_MISSED: left out (docs/blind-rounds.md)
# --- closeb (issue 44): relations and node kinds met by the run's shared writes and refusals, closed by kind
from .faults_closeb import CLOSEB  # noqa: E402

SESSION18 = SESSION18 + CLOSEB  # round76/77's three closed faults re-enter through split_missed (reasons deleted)
# --- closea (issue 44): blind misses of forms, jobs and seed draws closed by kind, and one more fault of each kind
from .faults_closea import CLOSEA  # noqa: E402

SESSION18 = SESSION18 + CLOSEA
# --- blind round 79 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from .faults_blind_round79 import BLIND_round79  # noqa: E402

SESSION18 = SESSION18 + BLIND_round79  # BLIND_round79_MISSED: left out (docs/blind-rounds.md)
# --- accept24 (issue 44 item 5): a lock after another account's send and after an unwikify, closed by kind
from .faults_accept24 import ACCEPT24  # noqa: E402

SESSION18 = SESSION18 + ACCEPT24
# --- blind round 82 (issue 44): drawn must-rules (seed 20261207) + eight outside kinds, measured blind
from .faults_blind_round82 import BLIND_round82  # noqa: E402

SESSION18 = SESSION18 + BLIND_round82  # BLIND_round82_MISSED: left out (docs/blind-rounds.md)
# --- blind round 84 (issue 44): drawn must-rules (seed 20261208) + eight outside kinds, measured blind
from .faults_blind_round84 import BLIND_round84  # noqa: E402

SESSION18 = SESSION18 + BLIND_round84  # BLIND_round84_MISSED: left out (docs/blind-rounds.md)
# --- blind round 83 (issue 44): drawn must-rules (seed 20261208) + eight outside kinds, measured blind
from .faults_blind_round83 import BLIND_round83  # noqa: E402

SESSION18 = SESSION18 + BLIND_round83  # BLIND_round83_MISSED: left out (docs/blind-rounds.md)
# --- blind round 85 (issue 44): drawn must-rules (seed 20261209) + eight outside kinds, measured blind
from .faults_blind_round85 import BLIND_round85  # noqa: E402

SESSION18 = SESSION18 + BLIND_round85  # BLIND_round85_MISSED: left out (docs/blind-rounds.md)
# --- types (issue 44): a field of another JSON type on one operation each, closed by kind
from .faults_types import TYPES  # noqa: E402

SESSION18 = SESSION18 + TYPES
# --- noeffect (issue 44): refused writes stored before their refusal, on paths the matrix judged by status only
from .faults_noeffect import NOEFFECT  # noqa: E402

SESSION18 = SESSION18 + NOEFFECT  # caught by the ledger of refused writes (suites/scenarios/refused_ledger.py)
# --- states (issue 44): node actions on a private comment, closed by kind (the privacy model's moves judged)
from .faults_states import STATES  # noqa: E402

SESSION18 = SESSION18 + STATES
# --- blind round 87 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from .faults_blind_round87 import BLIND_round87  # noqa: E402

SESSION18 = SESSION18 + BLIND_round87  # BLIND_round87_MISSED: left out (docs/blind-rounds.md)
# --- readback (issue 44): an accepted answer or comment kept out of the list it must appear in, on four paths
from .faults_readback import READBACK  # noqa: E402

SESSION18 = SESSION18 + READBACK
# --- blind round 86 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from .faults_blind_round86 import BLIND_round86  # noqa: E402

SESSION18 = SESSION18 + BLIND_round86  # BLIND_round86_MISSED: left out (docs/blind-rounds.md)
# --- blind round 88 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from .faults_blind_round88 import BLIND_round88  # noqa: E402

SESSION18 = SESSION18 + BLIND_round88  # BLIND_round88_MISSED: left out (docs/blind-rounds.md)
# --- blind round 90 (issue 44): drawn must-rules (seed 20261211) + eight outside kinds, measured blind
from .faults_blind_round90 import BLIND_round90  # noqa: E402

SESSION18 = SESSION18 + BLIND_round90  # BLIND_round90_MISSED: left out (docs/blind-rounds.md)
# --- blind round 89 (issue 44): drawn must-rules (seed 20261211) + eight outside kinds, measured blind
from .faults_blind_round89 import BLIND_round89  # noqa: E402

SESSION18 = SESSION18 + BLIND_round89  # BLIND_round89_MISSED: left out (docs/blind-rounds.md)
# --- refusals2 (issue 44): a refused comment of the comment refusal matrix stored before its refusal, three parents
from .faults_refusedrun import REFUSEDRUN  # noqa: E402

SESSION18 = SESSION18 + REFUSEDRUN
# --- close2 (issue 44): a stated id form and node kinds met by the run's shared writes and reads, closed by kind
from .faults_close2 import CLOSE2  # noqa: E402

SESSION18 = SESSION18 + CLOSE2  # round86/87's closed faults re-enter through split_missed (reasons deleted)
# --- options (issue 44): allowed calls with their stated options (wrap, v1), judged on what the option leaves stated
from .faults_options import OPTIONS  # noqa: E402

SESSION18 = SESSION18 + OPTIONS
# --- budget24 (issue 44): the next write after a state change (moderated, wiki), on the recipient's relation
from .faults_budget24 import BUDGET24  # noqa: E402

SESSION18 = SESSION18 + BUDGET24
# --- edges (issue 44): a value at an edge inside a field's stated type (blank, next unknown id), one path each
from .faults_edges import EDGES  # noqa: E402

SESSION18 = SESSION18 + EDGES
# --- placements (issue 44): the run's writes spread over parent kinds and relations, closed by kind
from .faults_placements import PLACEMENTS  # noqa: E402

SESSION18 = SESSION18 + PLACEMENTS
# --- blind round 92 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from .faults_blind_round92 import BLIND_round92  # noqa: E402

SESSION18 = SESSION18 + BLIND_round92  # BLIND_round92_MISSED: left out (docs/blind-rounds.md)
# --- blind round 91 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from .faults_blind_round91 import BLIND_round91  # noqa: E402

SESSION18 = SESSION18 + BLIND_round91  # BLIND_round91_MISSED: left out (docs/blind-rounds.md)
# --- blind round 93 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from .faults_blind_round93 import BLIND_round93  # noqa: E402

SESSION18 = SESSION18 + BLIND_round93  # BLIND_round93_MISSED: left out (docs/blind-rounds.md)
# --- blind round 96 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from .faults_blind_round96 import BLIND_round96  # noqa: E402

SESSION18 = SESSION18 + BLIND_round96  # BLIND_round96_MISSED: left out (docs/blind-rounds.md)
# --- place25 (issue 44): novice's answers judged over relations; which shared call carries the options, drawn
from .faults_place25 import PLACE25  # noqa: E402

SESSION18 = SESSION18 + PLACE25
# --- unwiki25 (issue 44): a comment right after an unwikify (the author's private one, its settings, its Location)
from .faults_unwiki25 import UNWIKI25  # noqa: E402

SESSION18 = SESSION18 + UNWIKI25
# --- forms25 (issue 44): recipients given as a request or query parameter or form-encoded, one parameter form each
from .faults_forms25 import FORMS25  # noqa: E402

SESSION18 = SESSION18 + FORMS25
# --- blind round 95 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from .faults_blind_round95 import BLIND_round95  # noqa: E402

SESSION18 = SESSION18 + BLIND_round95  # BLIND_round95_MISSED: left out (docs/blind-rounds.md)
# --- blind round 94 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from .faults_blind_round94 import BLIND_round94  # noqa: E402

SESSION18 = SESSION18 + BLIND_round94  # BLIND_round94_MISSED: left out (docs/blind-rounds.md)
# --- locks25 (issue 44): a lock and a send of a comment under the locker's own node, by a seed-drawn placement
from .faults_locks25 import LOCKS25  # noqa: E402

SESSION18 = SESSION18 + LOCKS25
# --- after25 (issue 44): member's comment right after its unwikify, its private option drawn (settings, content list)
from .faults_after25 import AFTER25  # noqa: E402

SESSION18 = SESSION18 + AFTER25
# --- content25 (issue 44): a user's content list shows private-option comments outside the option's audience
from .faults_content25 import CONTENT25  # noqa: E402

SESSION18 = SESSION18 + CONTENT25
# --- shapes25 (issue 44): an answer's comment list, its item shape broken for one state of the answer
from .faults_shapes25 import SHAPES25  # noqa: E402

SESSION18 = SESSION18 + SHAPES25  # SHAPES25_MISSED: left out (docs/blind-rounds.md)
# --- blind round 98 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
from .faults_blind_round98 import BLIND_round98  # noqa: E402

SESSION18 = SESSION18 + BLIND_round98  # BLIND_round98_MISSED: left out (docs/blind-rounds.md)
# --- blind round 97 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
from .faults_blind_round97 import BLIND_round97  # noqa: E402

SESSION18 = SESSION18 + BLIND_round97  # BLIND_round97_MISSED: left out (docs/blind-rounds.md)
# --- blind round 99 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
from .faults_blind_round99 import BLIND_round99  # noqa: E402

SESSION18 = SESSION18 + BLIND_round99  # BLIND_round99_MISSED: left out (docs/blind-rounds.md)
# --- hist26 (issue 44): kind proofs of a reply's own settings after an unwikify and of ownership under answers
from .faults_hist26 import HIST26  # noqa: E402

SESSION18 = SESSION18 + HIST26
# --- blind round 101 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
from .faults_blind_round101 import BLIND_round101  # noqa: E402

SESSION18 = SESSION18 + BLIND_round101  # BLIND_round101_MISSED: left out (docs/blind-rounds.md)
# --- blind round 100 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
from .faults_blind_round100 import BLIND_round100  # noqa: E402

SESSION18 = SESSION18 + BLIND_round100  # BLIND_round100_MISSED: left out (docs/blind-rounds.md)
# --- blind round 102 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
from .faults_blind_round102 import BLIND_round102  # noqa: E402

SESSION18 = SESSION18 + BLIND_round102  # BLIND_round102_MISSED: left out (docs/blind-rounds.md)
