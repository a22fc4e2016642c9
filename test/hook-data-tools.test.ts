// Data files edited in place from the command line, downloads, cloud storage copied to this
// machine and container builds' outputs (shell-data-rules.ts, shell-launchers.ts): read by the
// Claude hook from a shell command as the files they write here. Another session holds u.ts;
// session s2 runs them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Data = suite<Context>("claims hook: data editors, downloads, storage copies, container outputs");
Data.before.each((context) => {
  context.box = heldBox();
});
Data.after.each((context) => context.box.cleanup());

Data("should read data editors as the files they rewrite in place, and their printing forms as no write", async ({ box }) => {
  file(box, "plain.xsl", '<xsl:stylesheet version="1.0"/>\n');
  file(box, "pages.xsl", '<xsl:stylesheet><xsl:template match="/"><exsl:document href="page.html"/></xsl:template></xsl:stylesheet>\n');
  const cases: Array<[string, string[]]> = [
    ["xmlstarlet ed -L -u /config/a -v 1 conf.xml", ["conf.xml"]],
    ["xmlstarlet ed --inplace -N x=urn:x -m //a //b -d //c conf.xml other.xml", ["conf.xml", "other.xml"]],
    ["xmlstarlet ed -u /config/a -v 1 conf.xml", []],
    ["xmlstarlet sel -t -v //a conf.xml", []],
    ["mlr -I --csv sort -f a data.csv", ["a", "data.csv", "sort"]],
    ["mlr --icsv --ojson cat data.csv", []],
    ["mlr --csv cat then tee copy.csv then head data.csv", ["copy.csv"]],
    ["mlr --csv split -n 10 data.csv", ["glob:*"]],
    ["mlr --icsv put -q 'tee > $a.\".csv\", $*' data.csv", ["unknown:."]],
    ["mlr -n put 'end { system(\"make\") }'", ["unknown:."]],
    ["dasel put -f config.yaml -t string -v x .a", ["config.yaml"]],
    ["dasel put -f config.yaml -o out.yaml -t string -v x .a", ["out.yaml"]],
    ["dasel -f config.yaml .a", []],
    ["xsltproc -o out.html plain.xsl doc.xml", ["out.html"]],
    ["xsltproc --stringparam title T plain.xsl doc.xml", []],
    ["xsltproc pages.xsl doc.xml", ["unknown:."]],
    ["xsltproc --writesubtree site pages.xsl doc.xml", ["glob:site/**"]],
    ["xsltproc --nowrite pages.xsl doc.xml", []],
    ["sops -e -i secrets.yaml", ["secrets.yaml"]],
    ["sops encrypt --in-place secrets.yaml", ["secrets.yaml"]],
    ["sops -d secrets.yaml", []],
    ["sops -d --output plain.yaml secrets.yaml", ["plain.yaml"]],
    ["sops secrets.yaml", ["secrets.yaml"]],
    ["sops edit secrets.yaml", ["secrets.yaml"]],
    ["sops set secrets.yaml '[\"a\"]' '\"b\"'", ["secrets.yaml"]],
    ["sops updatekeys -y secrets.yaml", ["secrets.yaml"]],
    ["sops exec-env secrets.yaml 'rm notes.txt'", ["notes.txt"]],
    ["ansible-vault encrypt group_vars/all.yml", ["group_vars/all.yml"]],
    ["ansible-vault decrypt --output plain.yml vault.yml", ["plain.yml"]],
    ["ansible-vault edit --vault-password-file pw vault.yml", ["vault.yml"]],
    ["ansible-vault view vault.yml", []],
    ["ansible-vault encrypt_string --output s.yml secret", ["s.yml"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Data("should read downloads and cloud storage copies as what lands here, and uploads as no write here", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["yt-dlp -o talk.mp4 https://example.com/v", ["glob:talk.*", "glob:talk.mp4.*", "talk.mp4"]],
    ["yt-dlp https://example.com/v", ["glob:*"]],
    ["yt-dlp -P media -o '%(title)s.%(ext)s' https://example.com/v", ["glob:media/**"]],
    ["youtube-dl --download-archive seen.txt -o 'clips/%(id)s.%(ext)s' URL", ["glob:clips/**", "seen.txt"]],
    ["yt-dlp --simulate https://example.com/v", []],
    // (The command `--exec` runs is read, and, as its forms vary, it may write any file.)
    ["yt-dlp --exec 'rm notes.txt' -o talk.mp4 URL", ["glob:talk.*", "glob:talk.mp4.*", "notes.txt", "talk.mp4", "unknown:."]],
    ["rclone copy remote:bucket/data ./data", ["data", "glob:data/**"]],
    ["rclone -v --transfers 4 sync remote:bucket data", ["data", "glob:data/**"]],
    ["rclone copy ./data remote:bucket", []],
    ["rclone move ./out remote:bucket", ["glob:out/**", "out"]],
    ["rclone copyto remote:b/config.json config.json", ["config.json", "glob:config.json/**"]],
    ["rclone delete ./tmp", ["glob:tmp/**", "tmp"]],
    ["rclone copy remote:b ./dst --log-file=sync.log", ["dst", "glob:dst/**", "sync.log"]],
    ["gsutil -m cp -r gs://bucket/site ./site", ["glob:site/**", "site"]],
    ["gsutil cp gs://bucket/k.json k.json", ["k.json"]],
    ["gsutil cp k.json gs://bucket/", []],
    ["gsutil mv k.json gs://bucket/", ["glob:k.json/**", "k.json"]],
    ["gsutil rsync -d -r gs://bucket/www www", ["glob:www/**", "www"]],
    ["gcloud storage cp gs://bucket/k.json k.json", ["k.json"]],
    ["gcloud storage cp -r dist gs://bucket/", []],
    ["gcloud config set project p", []],
    ["az storage blob download -c c -n b.bin -f b.bin --account-name acct", ["b.bin"]],
    ["az storage blob download-batch -d assets -s c --account-name acct", ["assets", "glob:assets/**"]],
    ["az storage blob upload -c c -f b.bin -n b.bin", []],
    ["azcopy copy 'https://a.blob.core.windows.net/c?sv=x' ./local --recursive", ["glob:local/**", "local"]],
    ["s3cmd get s3://bucket/k.json", ["glob:*"]],
    ["aws s3 mv ./report.csv s3://bucket/report.csv", ["report.csv"]],
    ["gcloud secrets versions access latest --secret=api --out-file=api.key", ["api.key"]],
    ["gcloud kms decrypt --key k --keyring r --location global --ciphertext-file c.enc --plaintext-file plain.txt", ["plain.txt"]],
    ["gcloud iam service-accounts keys create key.json --iam-account a@p.iam.gserviceaccount.com", ["key.json"]],
    ["gcloud compute scp vm:/var/log/app.log ./logs --zone z", ["logs"]],
    ["gcloud compute scp ./dist vm:/srv", []],
    ["az keyvault secret download --vault-name v -n api -f api.key", ["api.key"]],
    ["az bicep build --file infra/main.bicep", ["infra/main.json"]],
    ["az bicep build -f main.bicep --stdout", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Data("should find a copy's destination past options it does not know, and read dry runs, prints and version queries as no write", async ({ box }) => {
  file(box, "main.xsl", '<xsl:stylesheet><xsl:import href="pages.xsl"/></xsl:stylesheet>\n');
  const cases: Array<[string, string[]]> = [
    ["rclone copy remote:x ./d --buffer-size 16M", ["d", "glob:d/**"]],
    ["rclone copy ./d remote:b --transfers 8", []],
    ["rclone copy remote:b ./d -n", []],
    ["rclone archive extract remote:a.zip ./d", ["d", "glob:d/**"]],
    ["rclone md5sum remote:b --output-file sums.txt", ["sums.txt"]],
    ["azcopy sync https://a.blob.core.windows.net/c ./d --delete-destination true", ["d", "glob:d/**"]],
    ["gcloud storage cp gs://b/k ./k.json --if-generation-match 0", ["0", "glob:0/**", "glob:k.json/**", "k.json"]],
    ["s3cmd --region us-east-1 get s3://b/k k.json", ["k.json"]],
    ["gsutil -m cp -I ./d", ["d", "glob:d/**"]],
    ["gsutil cp gs://b/x -", []],
    ["az storage blob download -c c -n n --file=k.json", ["k.json"]],
    ["az storage fs file download -f fs -p x -d ./d", ["d"]],
    ["mlr --ifs ';' -I cat data.csv", ["cat", "data.csv"]],
    ["mlr -n put 'end { tee | \"sort\", $* }'", ["unknown:."]],
    ["mlr --prepipe 'gunzip' cat data.csv", ["unknown:."]],
    ["mlr --csv split -n 10 --prefix out/chunk data.csv", ["glob:out/chunk*"]],
    ["yt-dlp --skip-download --write-subs -o 'subs/%(id)s.%(ext)s' URL", ["glob:subs/**"]],
    ["yt-dlp --exec 'after_move:rm notes.txt' URL", ["glob:*", "unknown:."]],
    ["yt-dlp -P temp:tmpdl -P home:media URL", ["glob:media/*", "glob:tmpdl/**"]],
    ["yt-dlp --print title URL", []],
    ["xsltproc --version", []],
    ["xsltproc main.xsl doc.xml", ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Data("should read container builds' outputs, saved images and exported file systems as files here", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["docker build -o out .", ["glob:out/**"]],
    ["docker buildx build --output type=local,dest=dist .", ["glob:dist/**"]],
    ["docker buildx build --output=type=tar,dest=image.tar .", ["image.tar"]],
    ["docker build --iidfile id.txt -t app .", ["id.txt"]],
    ["docker build --cache-to type=local,dest=.cache/b .", ["glob:.cache/b/**"]],
    ["docker build -t app .", []],
    ["docker buildx build --output type=registry -t app .", []],
    ["docker build -o - . > image.tar", ["image.tar"]],
    ["docker save -o app.tar app:latest", ["app.tar"]],
    ["podman image save --output app.tar app", ["app.tar"]],
    ["docker export -o rootfs.tar c1", ["rootfs.tar"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Data("should refuse the agent such a command on a file another session holds, and let reads and uploads by", ({ box }) => {
  // Those that name the held file, and those that write where it is without naming it.
  denies(box, ["xmlstarlet ed -L -d //x u.ts", "mlr -I --json cat u.ts", "sops -e -i u.ts", "docker save -o u.ts app", "rclone copyto remote:b/u.ts u.ts", "yt-dlp -o u.ts URL", "aws s3 mv u.ts s3://b/u.ts"]);
  denies(box, ["docker build --output type=local,dest=. .", "rclone sync remote:b .", "gsutil -m cp -r gs://b/src/* .", "yt-dlp -o '%(title)s.%(ext)s' URL", "gcloud storage rsync gs://b/www ."]);
  allows(box, ["xmlstarlet sel -t -v //a u.ts", "sops -d u.ts", "rclone copy u.ts remote:b", "gsutil cp u.ts gs://b/", "docker build -t app ."]);
});

Data.run();
