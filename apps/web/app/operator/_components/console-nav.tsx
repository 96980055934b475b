"use client";

import { usePathname } from "next/navigation";

export interface NavLink {
  href: string;
  label: string;
}

/** The console's sections; the current one is marked for assistive technology and by style. */
export function ConsoleNav({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  const current = (href: string) => (href === "/operator" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Console sections" className="console-nav">
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} aria-current={current(link.href) ? "page" : undefined}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
