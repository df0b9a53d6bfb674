/**
 * Passwords given to a command on its command line (mysql -p, sshpass -p, docker login -p,
 * redis-cli -a, echo … | sudo -S, htpasswd -b, ~/.netrc), after the labelled values in the secret
 * table (secret-patterns.ts). Each flag counts only after its own command, so `-p 8080:80` on a
 * later command stays a port.
 */
import { quotedValue, QUOTES } from './secret-fragments.js';
import { isPlaceholderMatch } from './secret-values.js';
import { re, type SecretPattern } from './secret-pattern-kit.js';

export const COMMAND_PATTERNS: readonly SecretPattern[] = [
  {
    kinds: ['password'],
    // mysql -uroot -phunter2 (the password glued to -p); sshpass -p 'x'; docker login -u ci -p x.
    // The flag is the same command's, and its value no shell operator: `docker login … && docker
    // run -p 8080:80` sets a port, `mysql -u root -p && mkdir -p out` prompts for the password.
    re: re(
      String.raw`[ \t]-p(?<=\b(?:mysql|mysqldump|mysqladmin|mariadb|sshpass|(?:docker|podman|nerdctl|buildah|skopeo)[ \t]+login)\b[^\r\n;&|]{0,200}-p)[ \t]*(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>-][^\s'"|;&<>]*))`,
    ),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // redis-cli -a hunter2
    re: re(
      String.raw`[ \t]-a(?<=\bredis-cli\b[^\r\n;&|]{0,200}-a)[ \t]+(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>-][^\s'"|;&<>]*))`,
    ),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // echo 'hunter2' | sudo -S apt update: the password piped to sudo's standard input.
    re: re(
      String.raw`\becho[ \t]+(?:-[neE]{1,3}[ \t]+)?(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>]{1,256}))[ \t]*\|[ \t]*sudo\b[^|;&\r\n]{0,100}?[ \t](?:-[A-Za-z]{0,8}S|--stdin)\b`,
    ),
    check: (p) => p.value.length >= 4 && !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // htpasswd -b[c] file user hunter2, htpasswd -nb user hunter2: `-b` takes the password from the command line.
    re: re(
      String.raw`\bhtpasswd(?<flags>(?:[ \t]+-[A-Za-z]{1,8}){1,4})[ \t]+[^\s-]\S{0,255}(?:[ \t]+[^\s'"|;&<>-]\S{0,255})?[ \t]+(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>]{1,256}))`,
    ),
    check: (p) => (p.m.groups?.flags ?? '').includes('b') && p.value.length >= 4 && !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // ~/.netrc: machine host login user password hunter2
    re: re(String.raw`\bmachine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+(?<vu>\S+)`),
    check: (p) => !isPlaceholderMatch(p),
  },
];
