#!/bin/bash
# Make /proc/cpuinfo and /sys/devices/system/cpu inside the arm64 root describe the ARM core that
# qemu emulates (QEMU_CPU), as the kernel of a real board would. qemu-user passes the x86 host's
# files through, so without this, libraries that read them take paths no ARM device takes: torch's
# oneDNN (xbyak_aarch64) crashes when midr_el1 is missing, and onnxruntime's cpuinfo cannot tell
# the core (it picks its Cortex-A53/A55 "narrow load" kernels by core type). CPU *features*
# (HWCAP: dotprod, i8mm, SVE...) come from qemu itself and need nothing here.
#
#   bash scripts/arm64/cpu_identity.sh MODEL   # run inside the root; run_in_root.sh has bind-
#                                              # mounted a writable /proc/cpuinfo and a tmpfs
#                                              # on /sys/devices/system/cpu
set -euo pipefail

main() {
  local model=${1:-max} midr features impl var part rev n i
  model=${model%%,*}   # "max,sme=off" -> max (the properties only change HWCAP)
  # MIDR_EL1 (implementer, variant, part, revision) of the part a board ships; features as the
  # kernel lists them (informative: libraries read HWCAP for features).
  local base="fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid"
  local v82="$base atomics fphp asimdhp asimdrdm lrcpc dcpop asimddp"
  case "$model" in
    cortex-a35)  midr=0x410fd040; features=$base ;;
    cortex-a53)  midr=0x410fd034; features=$base ;;           # Raspberry Pi 3 (r0p4)
    cortex-a57)  midr=0x411fd071; features=$base ;;
    cortex-a72)  midr=0x410fd083; features=$base ;;           # Raspberry Pi 4 (r0p3)
    cortex-a76)  midr=0x414fd0b1; features=$v82 ;;            # Raspberry Pi 5 (r4p1)
    neoverse-n1) midr=0x414fd0c1; features="$v82 ssbs" ;;
    a64fx)       midr=0x461f0010; features="$base atomics fphp asimdhp asimdrdm lrcpc dcpop sve" ;;
    max)         midr=0x000f0510  # qemu's own "max" core: implementer 0, an unknown part
                 features="$v82 sha3 sm3 sm4 asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp sve sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 dgh rng bti mte sme" ;;
    *) echo "cpu_identity: unknown model $model" >&2; exit 2 ;;
  esac
  impl=$(( (midr >> 24) & 0xff )); var=$(( (midr >> 20) & 0xf ))
  part=$(( (midr >> 4) & 0xfff )); rev=$(( midr & 0xf ))
  n=$(nproc)

  : > /proc/cpuinfo
  for (( i=0; i<n; i++ )); do
    printf 'processor\t: %d\nBogoMIPS\t: 50.00\nFeatures\t: %s\nCPU implementer\t: 0x%02x\nCPU architecture: 8\nCPU variant\t: 0x%x\nCPU part\t: 0x%03x\nCPU revision\t: %d\n\n' \
      "$i" "$features" "$impl" "$var" "$part" "$rev" >> /proc/cpuinfo
  done

  local sys=/sys/devices/system/cpu
  echo "0-$((n - 1))" > "$sys/possible"; echo "0-$((n - 1))" > "$sys/present"
  echo "0-$((n - 1))" > "$sys/online"
  for (( i=0; i<n; i++ )); do
    mkdir -p "$sys/cpu$i/regs/identification" "$sys/cpu$i/topology"
    printf '0x%016x\n' "$midr" > "$sys/cpu$i/regs/identification/midr_el1"
    echo 0x0000000000000000 > "$sys/cpu$i/regs/identification/revidr_el1"
    echo 1 > "$sys/cpu$i/online"
    echo "$i" > "$sys/cpu$i/topology/core_id"
    echo 0 > "$sys/cpu$i/topology/physical_package_id"
  done
}

main "$@"; exit $?  # one line: bash never reads past it, so editing a running script is safe
