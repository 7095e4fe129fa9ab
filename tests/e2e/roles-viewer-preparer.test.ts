// The pages the viewer and the preparer may use, in real Chromium against `npm start`, at a desktop width and a
// phone's: exactly their header links, each page with no console error, no sideways scrolling and
// no serious axe finding, and every other page saying in words that it is not theirs
// (tests/helpers/role-pages.ts; the other roles have a file of their own, run beside this one).
import { rolePagesSuite } from "../helpers/role-pages.ts";

rolePagesSuite(["viewer", "preparer"], "the viewer and the preparer");
