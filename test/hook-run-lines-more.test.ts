// More tools with a rule of their own that also run a command line, a program or code they are
// given besides their own work (consoles given code or input, coverage runners' commands, seeds,
// init scripts, password programs…): each was read as writing nothing of what it ran.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const More = suite<Context>("claims hook: more of what a ruled tool runs besides its own work");
More.before.each((context) => {
  context.box = heldBox();
});
More.after.each((context) => context.box.cleanup());

More("should read the Python Django's, Flask's shells run, and the Ruby a Rails console reads or a template is", async ({ box }) => {
  file(box, "x.py", "import os\nos.remove('u.ts')\n");
  file(box, "fix.rb", "File.delete('u.ts')\n");
  file(box, "template.rb", "File.delete('../u.ts')\n"); // (run in the new app's directory)
  denies(box, [
    "django-admin shell -c 'import os; os.remove(\"u.ts\")'",
    "django-admin shell --command='import os; os.remove(\"u.ts\")'",
    "django-admin shell < x.py",
    "django-admin shell <<'EOF'\nimport os\nos.remove('u.ts')\nEOF",
    "cat x.py | django-admin shell", // (input the text does not give)
    "flask shell < x.py",
    "flask --app web shell <<'EOF'\nimport os\nos.remove('u.ts')\nEOF",
    "rails console < fix.rb",
    "echo 'File.delete(\"u.ts\")' | rails c",
    "bin/rails c <<'EOF'\nFile.delete('u.ts')\nEOF",
    "rails new app -m template.rb",
    "rails new -m template.rb app",
    "rails new app --template=https://example.com/t.rb",
    "rails app:template LOCATION=fix.rb",
    "LOCATION=fix.rb bin/rails app:template",
  ]);
  allows(box, ["django-admin shell -c 'print(1)'", "django-admin check", "flask shell", "echo 'print(1)' | flask shell", "rails console", "echo 'puts 1' | rails c", "rails new app"]);
  assert.equal(await writes(box, "django-admin shell < x.py"), ["u.ts"]);
});

More.run();
