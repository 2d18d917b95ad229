/**
 * The lab's contact details as links, but only when they are real. Values the lab has not supplied
 * yet are stored as marked placeholders ("[Phone number — to be supplied by the lab]"); a link to
 * tel:[Phone…] or mailto:[Support…] would be broken, so those render as plain, visibly marked text.
 */

/** A phone number we can dial: digits, spaces and an optional leading +, at least 8 digits. */
function isDiallablePhone(value: string): boolean {
  return /^\+?[\d ]+$/.test(value.trim()) && value.replace(/\D/g, '').length >= 8
}

function isRealEmail(value: string): boolean {
  return value.includes('@') && !value.includes('[') && !/\s/.test(value.trim())
}

export function isRealWebsite(value: string): boolean {
  if (!value || value.includes('[')) return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

const linkClass = 'font-semibold break-words text-brand-700 underline underline-offset-4 hover:text-brand-800'

function PlaceholderText({ children }: { children: string }) {
  return <span className="break-words text-muted italic">{children}</span>
}

/** A free-text setting (an address, a name): shown as is, or marked while it is still a placeholder. */
export function SettingText({ value }: { value: string }) {
  return value.includes('[') ? <PlaceholderText>{value}</PlaceholderText> : <>{value}</>
}

export function PhoneValue({ phone, className = linkClass }: { phone: string; className?: string }) {
  if (!isDiallablePhone(phone)) return <PlaceholderText>{phone}</PlaceholderText>
  return (
    <a href={`tel:${phone.replace(/\s/g, '')}`} className={className}>
      {phone}
    </a>
  )
}

export function EmailValue({ email, className = linkClass }: { email: string; className?: string }) {
  if (!isRealEmail(email)) return <PlaceholderText>{email}</PlaceholderText>
  const address = email.trim()
  const at = address.lastIndexOf('@')
  // A narrow column breaks a long address after the @ rather than inside the domain.
  return (
    <a href={`mailto:${address}`} className={className}>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </a>
  )
}

/** Shows the address without the scheme ("lab.example.in"); renders nothing for an empty or placeholder value. */
export function WebsiteValue({ url, className = linkClass }: { url: string; className?: string }) {
  if (!isRealWebsite(url)) return null
  const { host, pathname } = new URL(url)
  return (
    <a href={url} rel="noopener noreferrer" className={className}>
      {host}
      {pathname === '/' ? '' : pathname}
    </a>
  )
}
