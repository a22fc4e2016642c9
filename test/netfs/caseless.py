#!/usr/bin/python3
# A case-insensitive, case-preserving filesystem over a directory (as APFS and NTFS are by
# default), for the caseless suite: every name is looked up without regard to case, and a name
# created keeps the case it was written in. Usage: caseless.py SOURCE MOUNTPOINT [--lookup-inodes]
# (foreground). With --lookup-inodes, FUSE numbers inodes per name looked up, as exFAT and FAT
# through FUSE do: `Button.ts` and `button.ts` are one file with two inode numbers.
import errno, os, sys
from fusepy import FUSE, FuseOSError, Operations

class Caseless(Operations):
    def __init__(self, root):
        self.root = os.path.realpath(root)

    def _real(self, path):
        real = self.root
        for part in [p for p in path.split("/") if p]:
            candidate = os.path.join(real, part)
            if not os.path.lexists(candidate):
                try:
                    match = next((name for name in os.listdir(real) if name.lower() == part.lower()), None)
                except OSError:
                    match = None
                if match is not None:
                    candidate = os.path.join(real, match)
            real = candidate
        return real

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        return os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        return os.lchown(self._real(path), uid, gid)

    def getattr(self, path, fh=None):
        st = os.lstat(self._real(path))
        return {key: getattr(st, key) for key in ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid", "st_ino")}

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def mknod(self, path, mode, dev):
        return os.mknod(self._real(path), mode, dev)

    def rmdir(self, path):
        return os.rmdir(self._real(path))

    def mkdir(self, path, mode):
        return os.mkdir(self._real(path), mode)

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        return {key: getattr(st, key) for key in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def unlink(self, path):
        return os.unlink(self._real(path))

    def symlink(self, name, target):
        return os.symlink(target, self._real(name))

    def rename(self, old, new):
        return os.rename(self._real(old), self._real(new))

    def link(self, target, name):
        return os.link(self._real(name), self._real(target))

    def utimens(self, path, times=None):
        return os.utime(self._real(path), times, follow_symlinks=False)

    def open(self, path, flags):
        return os.open(self._real(path), flags)

    def create(self, path, mode, fi=None):
        return os.open(self._real(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)

    def read(self, path, length, offset, fh):
        return os.pread(fh, length, offset)

    def write(self, path, buf, offset, fh):
        return os.pwrite(fh, buf, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            return os.ftruncate(fh, length)
        with open(self._real(path), "r+") as f:
            f.truncate(length)

    def flush(self, path, fh):
        return None

    def release(self, path, fh):
        return os.close(fh)

    def fsync(self, path, fdatasync, fh):
        return os.fsync(fh)

    def fsyncdir(self, path, datasync, fh):
        return 0

if __name__ == "__main__":
    FUSE(Caseless(sys.argv[1]), sys.argv[2], foreground=True, nothreads=True, use_ino="--lookup-inodes" not in sys.argv[3:], entry_timeout=0, attr_timeout=0, negative_timeout=0)
