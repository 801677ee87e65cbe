// The host's desk: no inline scripts (the content security policy forbids them).
"use strict";
